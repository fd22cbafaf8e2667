# richards (pyperformance's task scheduler), data-oriented; a line-by-line port of richards.tg (parallel lists, one scheduler function with the task bodies inline).
import sys

I_IDLE = 1
I_WORK = 2
I_HANDLERA = 3
I_HANDLERB = 4
I_DEVA = 5
I_DEVB = 6
K_DEV = 1000
K_WORK = 1001
BUFSIZE = 4
NONE = -1
A_WAIT = 0
A_HOLD = 1
A_RELEASE = 2
A_QPKT = 3


def last_packet(pk_link, p):
    while pk_link[p] != NONE:
        p = pk_link[p]
    return p


def run_once():
    # packets: link, destination/sender id, kind, datum, 4 data slots each
    pk_link = [NONE, 0, NONE, 2, 3, NONE, 5, 6]
    pk_id = [0, 0, I_DEVA, I_DEVA, I_DEVA, I_DEVB, I_DEVB, I_DEVB]
    pk_kind = [K_WORK, K_WORK, K_DEV, K_DEV, K_DEV, K_DEV, K_DEV, K_DEV]
    pk_datum = [0] * 8
    pk_data = [0] * (8 * BUFSIZE)
    # tasks, by id (0 unused): link in the task list, priority, input queue, state bits
    t_link = [NONE, NONE, I_IDLE, I_WORK, I_HANDLERA, I_HANDLERB, I_DEVA]
    t_pri = [0, 1, 1000, 2000, 3000, 4000, 5000]
    t_input = [NONE, NONE, 1, 4, 7, NONE, NONE]
    t_pending = [False, False, True, True, True, False, False]
    t_waiting = [False, False, True, True, True, True, True]
    t_holding = [False] * 7
    # the tasks' own records
    idle_control = 1
    idle_count = 10000
    work_dest = I_HANDLERA
    work_count = 0
    h_work = [NONE] * 7
    h_dev = [NONE] * 7
    d_pending = [NONE] * 7
    hold_count = 0
    qpkt_count = 0

    t = I_DEVB
    while t != NONE:
        if t_holding[t] or (not t_pending[t] and t_waiting[t]):
            t = t_link[t]
            continue
        msg = NONE
        if t_pending[t] and t_waiting[t] and not t_holding[t]:
            msg = t_input[t]
            t_input[t] = pk_link[msg]
            t_waiting[t] = False
            t_pending[t] = t_input[t] != NONE
        action = A_WAIT
        arg = NONE
        if t == I_IDLE:
            idle_count -= 1
            if idle_count == 0:
                action = A_HOLD
            elif idle_control & 1 == 0:
                idle_control = idle_control // 2
                action = A_RELEASE
                arg = I_DEVA
            else:
                idle_control = (idle_control // 2) ^ 0xd008
                action = A_RELEASE
                arg = I_DEVB
        elif t == I_WORK:
            if msg != NONE:
                if work_dest == I_HANDLERA:
                    work_dest = I_HANDLERB
                else:
                    work_dest = I_HANDLERA
                pk_id[msg] = work_dest
                pk_datum[msg] = 0
                for i in range(BUFSIZE):
                    work_count += 1
                    if work_count > 26:
                        work_count = 1
                    pk_data[msg * BUFSIZE + i] = 64 + work_count
                action = A_QPKT
                arg = msg
        elif t == I_HANDLERA or t == I_HANDLERB:
            if msg != NONE:
                pk_link[msg] = NONE
                if pk_kind[msg] == K_WORK:
                    if h_work[t] == NONE:
                        h_work[t] = msg
                    else:
                        pk_link[last_packet(pk_link, h_work[t])] = msg
                else:
                    if h_dev[t] == NONE:
                        h_dev[t] = msg
                    else:
                        pk_link[last_packet(pk_link, h_dev[t])] = msg
            work = h_work[t]
            if work != NONE:
                count = pk_datum[work]
                if count >= BUFSIZE:
                    h_work[t] = pk_link[work]
                    action = A_QPKT
                    arg = work
                else:
                    dev = h_dev[t]
                    if dev != NONE:
                        h_dev[t] = pk_link[dev]
                        pk_datum[dev] = pk_data[work * BUFSIZE + count]
                        pk_datum[work] = count + 1
                        action = A_QPKT
                        arg = dev
        else:
            if msg == NONE:
                if d_pending[t] != NONE:
                    action = A_QPKT
                    arg = d_pending[t]
                    d_pending[t] = NONE
            else:
                d_pending[t] = msg
                action = A_HOLD
        # apply the action; it names the task to run next
        if action == A_WAIT:
            t_waiting[t] = True
        elif action == A_HOLD:
            hold_count += 1
            t_holding[t] = True
            t = t_link[t]
        elif action == A_RELEASE:
            t_holding[arg] = False
            if t_pri[arg] > t_pri[t]:
                t = arg
        else:
            dest = pk_id[arg]
            qpkt_count += 1
            pk_link[arg] = NONE
            pk_id[arg] = t
            if t_input[dest] == NONE:
                t_input[dest] = arg
                t_pending[dest] = True
                if t_pri[dest] > t_pri[t]:
                    t = dest
            else:
                pk_link[last_packet(pk_link, t_input[dest])] = arg
    return (hold_count, qpkt_count)


def main(n):
    holds = 0
    qpkts = 0
    for i in range(n):
        h, q = run_once()
        if h != 9297 or q != 23246:
            print(f"wrong result in iteration {i}: hold {h}, qpkt {q}")
        holds += h
        qpkts += q
    print(f"{n} iterations: hold count {holds}, qpkt count {qpkts}")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
