-- The scalar loop `s += (i * i) % 7` in LuaJIT with int64 cdata (LuaJIT's
-- numbers are doubles, and i * i exceeds 2^53 for i > 9.5e7), for
-- bench/run_scalar_loop_bench. Prints the sum, then `loop_s T`.
local n = tonumber(arg[1] or "100000000")
local t0 = os.clock()
local s = 0LL
local i = 0LL
while i < n do
  s = s + (i * i) % 7
  i = i + 1
end
local t1 = os.clock()
print((tostring(s):gsub("LL$", "")))
print("loop_s", t1 - t0)
