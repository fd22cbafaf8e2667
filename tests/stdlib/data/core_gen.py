#!/usr/bin/python3
"""Generates the expected-value tables of tests/stdlib/test_core_*.cpp with
Python and NumPy (run once with /usr/bin/python3; the outputs are committed).

  core_float_repr.txt  dtype  bits(hex)  expected str
  core_binary.txt      op dtype a b expected   (NumPy semantics, Python's // and %)
  core_format.txt      dtype value(hex bits) spec<TAB>expected
  core_unary.txt       op dtype x(hex) expected(hex)   (NumPy / libm reference)
"""
import math
import random
import struct

import numpy as np

random.seed(1234)


def f32_bits(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def f64_bits(v):
    return struct.unpack('<Q', struct.pack('<d', v))[0]


def bits(dtype, v):
    return '%08x' % f32_bits(v) if dtype == 'f32' else '%016x' % f64_bits(v)


def py_layout(sci):
    """Python's repr(float) layout for the shortest digits given as NumPy's
    unique scientific string (e.g. '1.2345e-05')."""
    neg = sci.startswith('-')
    if neg:
        sci = sci[1:]
    mant, exp = sci.split('e')
    digits = mant.replace('.', '').rstrip('0') or '0'
    decpt = int(exp) + 1
    if decpt <= -4 or decpt > 16:
        s = digits[0] + ('.' + digits[1:] if len(digits) > 1 else '') + 'e%+03d' % (decpt - 1)
    elif decpt <= 0:
        s = '0.' + '0' * (-decpt) + digits
    elif decpt >= len(digits):
        s = digits + '0' * (decpt - len(digits)) + '.0'
    else:
        s = digits[:decpt] + '.' + digits[decpt:]
    return ('-' if neg else '') + s


def str_f32(v):
    x = np.float32(v)
    if np.isnan(x):
        return 'nan'
    if np.isinf(x):
        return 'inf' if x > 0 else '-inf'
    if x == 0:
        return '-0.0' if math.copysign(1, float(x)) < 0 else '0.0'
    return py_layout(np.format_float_scientific(x, unique=True, exp_digits=2))


def float_cases():
    vals = [0.0, -0.0, 1.0, -1.0, 7.0, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 0.5, 1e-5, 1e-4, 0.001, 1e16, 1e15, 1e17,
            123456789.0, 1234567890123456789.0, 9999999999999998.0, 1e22, 1e-7, 3.14159, 2.5, 100.0, 1e100, 1e-300,
            5e-324, 1.7976931348623157e308, float('inf'), float('-inf'), float('nan'), 3.4028234663852886e38,
            1.401298464324817e-45, 1.1754943508222875e-38, 16777216.0, 16777217.0, 0.30000000000000004,
            0.0001, 0.00011, 9.999e-5, 1e16 - 2, 123.456, -2.5e-8]
    for _ in range(300):
        e = random.uniform(-40, 40)
        vals.append(random.choice([-1, 1]) * 10 ** e)
    for _ in range(100):
        vals.append(random.uniform(-1000, 1000))
    for _ in range(50):
        vals.append(float(random.randint(-10 ** 6, 10 ** 6)))
    return vals


def gen_repr():
    with open('core_float_repr.txt', 'w') as f:
        for v in float_cases():
            f.write('f64 %s %s\n' % (bits('f64', v), repr(v)))
            with np.errstate(over='ignore'):
                x = float(np.float32(v))
            f.write('f32 %s %s\n' % (bits('f32', x), str_f32(x)))


def libm2(fn):
    """A binary libm function on one-element arrays, in f64, rounded to their dtype once."""
    return lambda a, b: np.array([fn(float(a[0]), float(b[0]))]).astype(a.dtype)


def gen_binary():
    ints = [-7, -3, -2, -1, 0, 1, 2, 3, 7, 10, -10, 2 ** 31 - 1, -2 ** 31, 2 ** 40, -2 ** 63, 2 ** 63 - 1, 123456789]
    floats = [-7.5, -3.0, -2.0, -1.0, -0.0, 0.0, 0.5, 1.0, 2.0, 3.0, 7.5, 1e30, -1e30, float('inf'),
              float('-inf'), float('nan'), 0.1, 5.3, -5.3]
    ops = {
        'add': np.add, 'sub': np.subtract, 'mul': np.multiply, 'floordiv': np.floor_divide,
        'mod': np.remainder, 'maximum': np.maximum, 'minimum': np.minimum, 'pow': np.power,
        'div': np.divide, 'atan2': libm2(math.atan2),  # (NumPy's f32 arctan2 can be 2 ulps off)
        'logaddexp': np.logaddexp,  # (its lines were appended: regenerating rewrites others by 1 ulp on another NumPy)
    }
    with open('core_binary.txt', 'w') as f, np.errstate(all='ignore'):
        for name, fn in ops.items():
            for dt, npt in (('i32', np.int32), ('i64', np.int64)):
                for a in ints:
                    for b in ints:
                        x, y = npt(a), npt(b)
                        if np.int64(x) != a or np.int64(y) != b:
                            continue
                        if name in ('floordiv', 'mod') and b == 0:
                            continue
                        if name == 'pow' and (b < 0 or b > 70):
                            continue
                        if name == 'atan2':  # tg: integers give f32, computed in f32
                            r = np.float32(math.atan2(np.float32(x), np.float32(y)))
                            f.write('%s %s %d %d %s\n' % (name, dt, a, b, bits('f32', float(r))))
                            continue
                        if name == 'logaddexp':  # tg: integers give f32, computed in f32
                            r = np.logaddexp(np.float32(x), np.float32(y))
                            f.write('%s %s %d %d %s\n' % (name, dt, a, b, bits('f32', float(r))))
                            continue
                        if name == 'div':
                            r = np.float32(x) / np.float32(y)
                            f.write('%s %s %d %d %s\n' % (name, dt, a, b, bits('f32', float(r))))
                            continue
                        r = fn(np.array([x]), np.array([y]))[0]
                        f.write('%s %s %d %d %d\n' % (name, dt, a, b, int(r)))
            if name == 'pow':
                fl = [v for v in floats]
            else:
                fl = floats
            for dt, npt in (('f32', np.float32), ('f64', np.float64)):
                for a in fl:
                    for b in fl:
                        x, y = npt(a), npt(b)
                        r = fn(np.array([x]), np.array([y]))[0]
                        f.write('%s %s %s %s %s\n' % (name, dt, bits(dt, float(x)), bits(dt, float(y)),
                                                      bits(dt, float(r))))


def gen_format():
    cases = [
        (3.14159265, ['.4f', '.2f', '.0f', '.3e', '.2E', '>10.3f', '<10.3f', '^10.3f', '010.3f', '+.2f', ' .2f',
                      'g', '.3g', '.3', '', '%', '.1%', 'e', 'f', '=+10.2f', '*^12.4f', '10', ',.2f']),
        (-2.5, ['.4f', '.3e', '08.3f', '+', '>8', 'g', '.0f', '.1', '']),
        (1234567.891, [',.2f', '_.1f', ',', '.3e', 'g', '.3', '.10']),
        (0.0, ['.3f', 'e', 'g', '']),
        (-0.0, ['.2f', '']),
        (1e-5, ['', 'g', '.2e', 'f', '.3']),
        (1e16, ['', 'g', '.20', '.3']),
        (123.0, ['.3', '.2', '.5', '.1']),
        (100.0, ['.3', '.1f']),
        (12.5, ['.3']),
        (float('inf'), ['.2f', '>6', 'F', '08.2f']),
        (float('-inf'), ['.2f', 'e']),
        (float('nan'), ['.2f', '>5', 'E']),
        (0.5, ['%', '.0%']),
        (2.5, ['.0f']),
        (1.5, ['.0f']),
    ]
    int_cases = [
        (42, ['', 'd', '>6', '<6', '^6', '06', '+d', ',', '08,', '.2f', '.3e', 'e', '%', 'g', ' d', '=+6']),
        (-7, ['', 'd', '>5', '05', '.1f']),
        (1234567, [',', '_', '>12,']),
        (0, ['d', '+', 'x', '#b']),
        # integer presentation types: hex, octal, binary, '#' prefixes, '_' groups of 4
        (255, ['x', 'X', '#x', '#X', '#06x', 'o', '#o', 'b', '#b', '08b', '_b', '_x', '>8x', '+x', '^9b', '#010_b']),
        (-255, ['x', '#x', '08x', 'b', ' o']),
        (48879, ['x', '_x', '#_x']),
    ]
    with open('core_format.txt', 'w') as f:
        for v, specs in cases:
            for dt in ('f32', 'f64'):
                x = float(np.float32(v)) if dt == 'f32' else v
                for s in specs:
                    if dt == 'f32' and not any(c in s for c in 'fFeEgG%.'):
                        # No type and no precision: the tensor's own (f32) digits, which
                        # Python cannot produce; covered by hand in test_core_format.cpp.
                        if s != '':
                            continue
                        exp = str_f32(x)
                    else:
                        exp = format(x, s)
                    f.write('%s %s %s\t%s\n' % (dt, bits(dt, x), s if s else '-', exp))
        for v, specs in int_cases:
            for s in specs:
                f.write('i64 %d %s\t%s\n' % (v, s if s else '-', format(v, s)))


def libm(fn):
    def f(x):
        x = float(x)
        if math.isnan(x):
            return x
        try:
            return fn(x)
        except ValueError:  # outside the domain (log of a negative, asin(2))
            return float('nan') if not (x == 0 and fn in (math.log2, math.log10)) else float('-inf')
        except OverflowError:  # sinh / cosh / x ** 3 beyond f64
            return math.copysign(float('inf'), x) if fn is not math.cosh else float('inf')
    return f


def gelu_tanh(x):  # in tg's order of operations (exp magnifies the rounding of its argument)
    t = -2.0 * (0.7978845608028654 * (x + 0.044715 * x * x * x))
    return x * 0.0 if t > 709.0 else x / (1 + math.exp(t))  # (exp(t) = inf: x / inf)


def gen_unary():
    xs = [-100.0, -88.0, -20.0, -10.5, -3.0, -1.0, -0.5, -1e-3, -1e-8, -0.0, 0.0, 1e-8, 1e-3, 0.1, 0.5, 0.625,
          0.7, 1.0, 2.0, 3.0, 10.5, 20.0, 50.0, 88.0, 88.7, 89.0, 100.0, 700.0, 710.0, 1e-30, 1e30,
          float('inf'), float('-inf'), float('nan'), 2.5, 3.5, -2.5, -3.5, 1.5, -1.5]
    for _ in range(200):
        xs.append(random.uniform(-30, 30))
    ref = {
        'exp': np.exp, 'log': np.log, 'tanh': np.tanh, 'sqrt': np.sqrt, 'log1p': np.log1p,
        'sin': np.sin, 'cos': np.cos, 'floor': np.floor, 'ceil': np.ceil, 'round': np.round, 'abs': np.abs,
        'sign': np.sign, 'sigmoid': lambda x: 1 / (1 + np.exp(-x)), 'expm1': libm(math.expm1),  # (the committed values)
        # libm through Python's math (what NumPy calls without SIMD; its SIMD
        # versions can be an ulp off), NaN where math raises (outside the domain)
        'log2': libm(math.log2), 'log10': libm(math.log10), 'asin': libm(math.asin), 'acos': libm(math.acos),
        'atan': libm(math.atan), 'sinh': libm(math.sinh), 'cosh': libm(math.cosh), 'erf': libm(math.erf),
        'trunc': np.trunc, 'reciprocal': lambda x: 1 / x, 'softplus': lambda x: np.logaddexp(x, 0.0),
        # (gelu in the forms without cancellation at x << 0)
        # (x / sqrt(2) as tg computes it, x * M_SQRT1_2: erfc magnifies the argument's rounding)
        'gelu': libm(lambda x: 0.5 * x * math.erfc(-x * 0.7071067811865476)),
        'gelu_tanh': libm(gelu_tanh),
    }
    with open('core_unary.txt', 'w') as f, np.errstate(all='ignore'):
        for name, fn in ref.items():
            for dt, npt in (('f32', np.float32), ('f64', np.float64)):
                for v in xs:
                    x = npt(v)
                    if name == 'sigmoid':
                        r = float(1 / (1 + np.exp(-np.float64(x))))  # exact reference in f64
                    else:
                        r = float(fn(np.float64(x)))  # reference computed in f64
                    f.write('%s %s %s %s\n' % (name, dt, bits(dt, float(x)), bits('f64', r)))


gen_repr()
gen_binary()
gen_format()
gen_unary()
