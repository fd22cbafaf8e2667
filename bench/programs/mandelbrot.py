# mandelbrot (benchmarks game), floats, a checksum of the bitmap's bytes; a line-by-line port of mandelbrot.tg.
import sys


ZERO = 0.0


def mandelbrot(size):
    fsize = float(size)
    checksum = 0
    inside = 0
    for y in range(size):
        ci = 2 * float(y) / fsize - 1.0
        byte = 0
        bits = 0
        for x in range(size):
            cr = 2 * float(x) / fsize - 1.5
            zr = ZERO
            zi = ZERO
            bit = 1
            for i in range(50):
                tr = zr * zr - zi * zi + cr
                zi = 2 * zr * zi + ci
                zr = tr
                if zr * zr + zi * zi > 4:
                    bit = 0
                    break
            inside += bit
            byte = byte * 2 + bit
            bits += 1
            if bits == 8:
                checksum = (checksum * 31 + byte) % 1000000007
                byte = 0
                bits = 0
        if bits > 0:
            while bits < 8:
                byte = byte * 2
                bits += 1
            checksum = (checksum * 31 + byte) % 1000000007
    print(f"{size}x{size}: {inside} points inside, checksum {checksum}")


mandelbrot(int(sys.argv[1]) if len(sys.argv) > 1 else 64)
