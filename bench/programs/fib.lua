-- fib: the doubly recursive Fibonacci function; a line-by-line port of fib.tg.
local function fib(n)
  if n < 2 then
    return n
  end
  return fib(n - 1) + fib(n - 2)
end

local n = math.tointeger(tonumber(arg[1])) or 20
print(string.format("fib(%d) = %d", n, fib(n)))
