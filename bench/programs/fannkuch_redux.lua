-- fannkuch-redux (benchmarks game); a line-by-line port of fannkuch_redux.tg (0-based arrays: t[0] is used).
local function fannkuch(n)
  local max_flips, checksum, sign = 0, 0, 1
  local perm1, count, perm = {}, {}, {}
  for i = 0, n - 1 do perm1[i] = i; count[i] = i; perm[i] = i end
  while true do
    local k = perm1[0]
    if k ~= 0 then
      for i = 0, n - 1 do perm[i] = perm1[i] end
      local flips = 1
      local kk = perm[k]
      while kk ~= 0 do
        -- reverse perm[0..k]
        local lo, hi = 0, k
        while lo < hi do
          local t = perm[lo]
          perm[lo] = perm[hi]
          perm[hi] = t
          lo = lo + 1
          hi = hi - 1
        end
        flips = flips + 1
        k = kk
        kk = perm[kk]
      end
      if flips > max_flips then max_flips = flips end
      checksum = checksum + sign * flips
    end
    -- the next permutation, incrementally
    if sign == 1 then
      local t = perm1[0]
      perm1[0] = perm1[1]
      perm1[1] = t
      sign = -1
    else
      local t = perm1[1]
      perm1[1] = perm1[2]
      perm1[2] = t
      sign = 1
      local done = true
      for r = 2, n - 2 do
        if count[r] ~= 0 then
          count[r] = count[r] - 1
          done = false
          break
        end
        count[r] = r
        local p0 = perm1[0]
        for i = 0, r do perm1[i] = perm1[i + 1] end
        perm1[r + 1] = p0
      end
      if done then
        local r = n - 1
        if count[r] == 0 then return checksum, max_flips end
        count[r] = count[r] - 1
      end
    end
  end
end

local function main(n)
  if n < 3 then
    print("0\nPfannkuchen(0) = 0")
    return
  end
  local checksum, flips = fannkuch(n)
  print(checksum)
  print(string.format("Pfannkuchen(%d) = %d", n, flips))
end

main(math.tointeger(tonumber(arg[1])) or 7)
