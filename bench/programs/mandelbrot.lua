-- mandelbrot (benchmarks game), doubles, a checksum of the bitmap's bytes; a line-by-line port of mandelbrot.tg.
local ZERO = 0.0

local function mandelbrot(size)
  local fsize = size + 0.0
  local checksum, inside = 0, 0
  for y = 0, size - 1 do
    local ci = 2 * (y + 0.0) / fsize - 1.0
    local byte, bits = 0, 0
    for x = 0, size - 1 do
      local cr = 2 * (x + 0.0) / fsize - 1.5
      local zr, zi = ZERO, ZERO
      local bit = 1
      for i = 1, 50 do
        local tr = zr * zr - zi * zi + cr
        zi = 2 * zr * zi + ci
        zr = tr
        if zr * zr + zi * zi > 4 then
          bit = 0
          break
        end
      end
      inside = inside + bit
      byte = byte * 2 + bit
      bits = bits + 1
      if bits == 8 then
        checksum = (checksum * 31 + byte) % 1000000007
        byte, bits = 0, 0
      end
    end
    if bits > 0 then
      while bits < 8 do
        byte = byte * 2
        bits = bits + 1
      end
      checksum = (checksum * 31 + byte) % 1000000007
    end
  end
  print(string.format("%dx%d: %d points inside, checksum %d", size, size, inside, checksum))
end

mandelbrot(math.tointeger(tonumber(arg[1])) or 64)
