-- The scalar loop `s += (i * i) % 7` in Lua 5.4 (native 64-bit integers), for
-- bench/run_scalar_loop_bench. Prints the sum, then `loop_s T`.
local n = tonumber(arg[1] or "100000000") // 1
local t0 = os.clock()
local s = 0
for i = 0, n - 1 do
  s = s + (i * i) % 7
end
local t1 = os.clock()
print(s)
print("loop_s", t1 - t0)
