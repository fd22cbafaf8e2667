-- spectral-norm (benchmarks game), doubles; a line-by-line port of spectral_norm.tg (0-based i, j as in the formula).
local ONE = 1.0

local function eval_a(i, j)
  return ONE / ((i + j) * (i + j + 1) // 2 + i + 1)
end

local function a_times_u(u, n)
  local out = {}
  for i = 0, n - 1 do
    local s = 0.0
    for j = 0, n - 1 do
      s = s + eval_a(i, j) * u[j + 1]
    end
    out[#out + 1] = s
  end
  return out
end

local function at_times_u(u, n)
  local out = {}
  for i = 0, n - 1 do
    local s = 0.0
    for j = 0, n - 1 do
      s = s + eval_a(j, i) * u[j + 1]
    end
    out[#out + 1] = s
  end
  return out
end

local function ata_times_u(u, n)
  return at_times_u(a_times_u(u, n), n)
end

local function main(n)
  local u = {}
  for i = 1, n do u[i] = 1.0 end
  local v = u
  for k = 1, 10 do
    v = ata_times_u(u, n)
    u = ata_times_u(v, n)
  end
  local vbv, vv = 0.0, 0.0
  for i = 1, n do
    vbv = vbv + u[i] * v[i]
    vv = vv + v[i] * v[i]
  end
  if n == 0 then
    print(string.format("%.9f", 0.0))
  else
    print(string.format("%.9f", math.sqrt(vbv / vv)))
  end
end

main(tonumber(arg[1]) or 100)
