-- closures: higher-order functions, closures made in loops, composition, map/filter/fold written by hand; a line-by-line port of closures.tg.
local M = 1000003

local function make_adder(k)
  return function(x) return (x + k) % M end
end

local function make_scaler(k)
  local function scale(x)
    return (x * k) % M
  end
  return scale
end

local function compose(f, g)
  return function(x) return f(g(x)) end
end

local function my_map(f, xs)
  local out = {}
  for i = 1, #xs do out[i] = f(xs[i]) end
  return out
end

local function my_filter(pred, xs)
  local out = {}
  for i = 1, #xs do
    local x = xs[i]
    if pred(x) then out[#out + 1] = x end
  end
  return out
end

local function fold(f, acc, xs)
  for i = 1, #xs do
    acc = f(acc, xs[i])
  end
  return acc
end

local function make_pipeline(steps)
  local pipeline = function(x) return x end
  for i = 0, steps - 1 do
    if i % 2 == 0 then
      pipeline = compose(make_adder(i + 1), pipeline)
    else
      pipeline = compose(make_scaler(i + 2), pipeline)
    end
  end
  return pipeline
end

local function curry(f)
  return function(a) return function(b) return f(a, b) end end
end

local function run(n)
  local pipeline = make_pipeline(8)
  local is_even = function(x) return x % 2 == 0 end
  local add = curry(function(a, b) return (a + b) % M end)
  local total = 0
  local xs = {}
  for i = 0, 99 do xs[#xs + 1] = i end
  for rnd = 0, n - 1 do
    local ys = my_map(pipeline, xs)
    local evens = my_filter(is_even, ys)
    local plus = add(rnd)
    total = fold(function(acc, y) return (acc + plus(y)) % M end, total, evens)
    xs = my_map(make_adder(rnd), xs)
  end
  print(string.format("%d rounds: total %d, xs[0] %d, xs[99] %d", n, total, xs[1], xs[100]))
end

run(math.tointeger(tonumber(arg[1])) or 100)
