-- richards (pyperformance's task scheduler), data-oriented; a line-by-line port of richards.tg (parallel arrays indexed from 0, one scheduler function with the task bodies inline).
local I_IDLE, I_WORK, I_HANDLERA, I_HANDLERB, I_DEVA, I_DEVB = 1, 2, 3, 4, 5, 6
local K_DEV, K_WORK = 1000, 1001
local BUFSIZE = 4
local NONE = -1
local A_WAIT, A_HOLD, A_RELEASE, A_QPKT = 0, 1, 2, 3

local function last_packet(pk_link, p)
  while pk_link[p] ~= NONE do
    p = pk_link[p]
  end
  return p
end

local function filled(n, v)
  local t = {}
  for i = 0, n - 1 do t[i] = v end
  return t
end

local function run_once()
  -- packets: link, destination/sender id, kind, datum, 4 data slots each
  local pk_link = {[0] = NONE, 0, NONE, 2, 3, NONE, 5, 6}
  local pk_id = {[0] = 0, 0, I_DEVA, I_DEVA, I_DEVA, I_DEVB, I_DEVB, I_DEVB}
  local pk_kind = {[0] = K_WORK, K_WORK, K_DEV, K_DEV, K_DEV, K_DEV, K_DEV, K_DEV}
  local pk_datum = filled(8, 0)
  local pk_data = filled(8 * BUFSIZE, 0)
  -- tasks, by id (0 unused): link in the task list, priority, input queue, state bits
  local t_link = {[0] = NONE, NONE, I_IDLE, I_WORK, I_HANDLERA, I_HANDLERB, I_DEVA}
  local t_pri = {[0] = 0, 1, 1000, 2000, 3000, 4000, 5000}
  local t_input = {[0] = NONE, NONE, 1, 4, 7, NONE, NONE}
  local t_pending = {[0] = false, false, true, true, true, false, false}
  local t_waiting = {[0] = false, false, true, true, true, true, true}
  local t_holding = filled(7, false)
  -- the tasks' own records
  local idle_control = 1
  local idle_count = 10000
  local work_dest = I_HANDLERA
  local work_count = 0
  local h_work = filled(7, NONE)
  local h_dev = filled(7, NONE)
  local d_pending = filled(7, NONE)
  local hold_count = 0
  local qpkt_count = 0

  local t = I_DEVB
  while t ~= NONE do
    if t_holding[t] or (not t_pending[t] and t_waiting[t]) then
      t = t_link[t]
      goto continue
    end
    do
      local msg = NONE
      if t_pending[t] and t_waiting[t] and not t_holding[t] then
        msg = t_input[t]
        t_input[t] = pk_link[msg]
        t_waiting[t] = false
        t_pending[t] = t_input[t] ~= NONE
      end
      local action = A_WAIT
      local arg = NONE
      if t == I_IDLE then
        idle_count = idle_count - 1
        if idle_count == 0 then
          action = A_HOLD
        elseif idle_control & 1 == 0 then
          idle_control = idle_control // 2
          action = A_RELEASE
          arg = I_DEVA
        else
          idle_control = (idle_control // 2) ~ 0xd008
          action = A_RELEASE
          arg = I_DEVB
        end
      elseif t == I_WORK then
        if msg ~= NONE then
          if work_dest == I_HANDLERA then
            work_dest = I_HANDLERB
          else
            work_dest = I_HANDLERA
          end
          pk_id[msg] = work_dest
          pk_datum[msg] = 0
          for i = 0, BUFSIZE - 1 do
            work_count = work_count + 1
            if work_count > 26 then
              work_count = 1
            end
            pk_data[msg * BUFSIZE + i] = 64 + work_count
          end
          action = A_QPKT
          arg = msg
        end
      elseif t == I_HANDLERA or t == I_HANDLERB then
        if msg ~= NONE then
          pk_link[msg] = NONE
          if pk_kind[msg] == K_WORK then
            if h_work[t] == NONE then
              h_work[t] = msg
            else
              pk_link[last_packet(pk_link, h_work[t])] = msg
            end
          else
            if h_dev[t] == NONE then
              h_dev[t] = msg
            else
              pk_link[last_packet(pk_link, h_dev[t])] = msg
            end
          end
        end
        local work = h_work[t]
        if work ~= NONE then
          local count = pk_datum[work]
          if count >= BUFSIZE then
            h_work[t] = pk_link[work]
            action = A_QPKT
            arg = work
          else
            local dev = h_dev[t]
            if dev ~= NONE then
              h_dev[t] = pk_link[dev]
              pk_datum[dev] = pk_data[work * BUFSIZE + count]
              pk_datum[work] = count + 1
              action = A_QPKT
              arg = dev
            end
          end
        end
      else
        if msg == NONE then
          if d_pending[t] ~= NONE then
            action = A_QPKT
            arg = d_pending[t]
            d_pending[t] = NONE
          end
        else
          d_pending[t] = msg
          action = A_HOLD
        end
      end
      -- apply the action; it names the task to run next
      if action == A_WAIT then
        t_waiting[t] = true
      elseif action == A_HOLD then
        hold_count = hold_count + 1
        t_holding[t] = true
        t = t_link[t]
      elseif action == A_RELEASE then
        t_holding[arg] = false
        if t_pri[arg] > t_pri[t] then
          t = arg
        end
      else
        local dest = pk_id[arg]
        qpkt_count = qpkt_count + 1
        pk_link[arg] = NONE
        pk_id[arg] = t
        if t_input[dest] == NONE then
          t_input[dest] = arg
          t_pending[dest] = true
          if t_pri[dest] > t_pri[t] then
            t = dest
          end
        else
          pk_link[last_packet(pk_link, t_input[dest])] = arg
        end
      end
    end
    ::continue::
  end
  return hold_count, qpkt_count
end

local function main(n)
  local holds, qpkts = 0, 0
  for i = 0, n - 1 do
    local h, q = run_once()
    if h ~= 9297 or q ~= 23246 then
      print(string.format("wrong result in iteration %d: hold %d, qpkt %d", i, h, q))
    end
    holds = holds + h
    qpkts = qpkts + q
  end
  print(string.format("%d iterations: hold count %d, qpkt count %d", n, holds, qpkts))
end

main(math.tointeger(tonumber(arg[1])) or 10)
