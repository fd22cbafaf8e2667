#!/usr/bin/env python3
"""Writes the bad-input scripts here: each error of the table below raised
inside a function body, which runs as body code (interp/body_code.hpp),
one script each. Body code must report the same located error, with the
same traceback, as the tree walker that ran function bodies before it
existed. After changing the table, write the scripts and their expected
output from a build you trust (review the diff):

    /usr/bin/python3 tests/scripts/body_errors/make_cases.py
    python3 tests/run_scripts.py --update build/tg tests/scripts/body_errors
"""
import pathlib

here = pathlib.Path(__file__).resolve().parent

# Helpers every script defines first.
SETUP = [
    "x_global = 1",
    "global_list = [1]",
    "",
    "",
    "def one(x):",
    "    return x + 1",
    "",
    "",
    "def pair(a, b):",
    "    return (a, b)",
    "",
    "",
    "def deep(n):",
    "    return deep(n + 1) + 1",
    "",
    "",
]

# name: the body of `f()` (lines), which fails when f() is called
CASES = {
    "undefined_operand": ["z = one(1) + later", "later = 2"],
    # `name = <arithmetic>` (StoreScalar): the walker's statement when the scalar program gives up
    "store_scalar_undefined": ["z = later * 2 + 1", "later = 2"],
    "store_scalar_division_by_zero": ["n = 0", "z = (n + 5) // n"],
    "store_scalar_string_operand": ["s = 'a'", "n = 1", "z = n + s"],
    "store_scalar_item_out_of_range": ["xs = [1, 2]", "k = 2", "z = xs[k] - xs[0]"],
    "store_scalar_bool_item": ["xs = [True]", "k = 0", "z = xs[k] - 'a'"],
    "store_scalar_tensor_then_error": ["t = tensor([1.0, 2.0])", "z = t * 2", "z = z + [1, 2, 3]"],
    "undefined_left_operand": ["z = later + one(1)", "later = 2"],
    "undefined_argument": ["z = one(later)", "later = 2"],
    "undefined_callee": ["z = onee(1)"],
    "undefined_return": ["if one(0) > 5:", "    later = 1", "return later"],
    "not_callable": ["n = 5", "z = n(1)"],
    "missing_argument": ["z = pair(1)"],
    "too_many_arguments": ["z = pair(1, 2, 3)"],
    "builtin_error": ["z = len(one(1))"],
    "operator_error": ["z = one(1) + \"a\""],
    "operator_error_in_return": ["return \"a\" - one(1)"],
    "error_in_callee": ["z = one(\"a\")"],
    "error_in_tuple_item": ["z = (one(1), one(None))"],
    "error_in_list_item": ["z = [one(1), one('a')]"],
    "recursion_limit": ["return deep(0)"],
    "range_float": ["for i in range(1.5):", "    pass"],
    "range_string_stop": ["for i in range(0, 'a'):", "    pass"],
    "range_zero_step": ["for i in range(0, 5, 0):", "    pass"],
    "range_no_arguments": ["for i in range():", "    pass"],
    "range_too_many_arguments": ["for i in range(1, 2, 3, 4):", "    pass"],
    # range's arguments read at once (a variable, a scalar program), else the walker's
    "range_float_variable": ["v = 1.5", "for i in range(v):", "    pass"],
    "range_float_computed": ["n = 2", "for i in range(0, n * 0.5):", "    pass"],
    "range_undefined_variable": ["for i in range(0, later):", "    pass", "later = 3"],
    "range_computed_zero_step": ["n = 0", "for i in range(0, 5, n * 2):", "    pass"],
    "range_computed_division_by_zero": ["n = 0", "for i in range(3 // n):", "    pass"],
    "range_tensor_variable": ["t = tensor([1, 2])", "for i in range(1, t):", "    pass"],
    "iterate_number": ["for x in one(1):", "    pass"],
    "unpack_loop_item": ["for a, b in [1, 2]:", "    pass"],
    "error_in_loop_body": ["total = 0", "for i in range(3):", "    total += one(i) + \"a\""],
    "error_after_break": ["for i in range(3):", "    if i == 1:", "        break", "z = i + 'a'"],
    "error_in_while_condition": ["k = 0", "while k < one('a'):", "    k += 1"],
    "error_in_if_condition": ["if \"a\" < one(1):", "    pass"],
    "is_none_undefined": ["if later is None:", "    pass", "later = 1"],
    "is_not_none_undefined": ["while later is not None:", "    pass", "later = 1"],
    "aug_undefined_target": ["n += one(1)", "n = 0"],
    "aug_undefined_value": ["n = 1", "n += later", "later = 2"],
    "aug_type_error": ["text = 'a'", "text += one(1)"],
    "aug_type_error_plain": ["text = 'a'", "k = 1", "text -= k"],
    "aug_global_undeclared": ["x_global += one(1)"],
    "truth_error_or": ["if one(0) > 5 or zeros(3):", "    pass"],
    "truth_error_and_left": ["if zeros(3) and one(0):", "    pass"],
    "truth_error_not": ["if not zeros(3):", "    pass"],
    "truth_error_while_and": ["k = 0", "while k < 3 and zeros(2):", "    k += 1"],
    "truth_error_nested": ["if one(0) and (one(1) > 5 or zeros(2)):", "    pass"],
    "truth_error_not_and": ["if not (one(0) > 0 and zeros(2)):", "    pass"],
    "undefined_in_or": ["if one(0) > 5 or later:", "    pass", "later = 1"],
    "unpack_too_many": ["a, b = pair(1, (2, 3)) + (4,)"],
    "unpack_too_few": ["a, b, c = pair(1, 2)"],
    "unpack_number": ["a, b = one(1)"],
    "unpack_string": ["a, b = 'abc'"],
    "unpack_undefined_value": ["a, b = later", "later = (1, 2)"],
    "unpack_nested": ["(a, b), c = pair(1, 2)"],
    "unpack_into_item_of_number": ["n = 5", "a, n[0] = pair(1, 2)"],
    "unpack_list_target": ["[a, b] = [one(1)]"],
    # Unpack (local targets): a list's or a tuple's items at once, anything else as assign() unpacks it
    "unpack_dict_keys_then_error": ["a, b = {'x': 1, 'y': 2}", "z = a + b + 1"],
    "unpack_variable_too_few": ["t = (1,)", "a, b = t"],
    "unpack_tensor_rows_then_error": ["a, b = tensor([[1, 2], [3, 4]])", "z = a + [1, 2, 3]"],
    "unpack_same_name_twice_then_error": ["a, a = pair(1, 'x')", "z = a + 1"],
    "store_to_outer": ["def inner():", "    z = one(1)", "    return z", "return inner() + one('a')"],
    # a statement that needs more temporaries than body code holds is the walker's alone
    "error_in_wide_display": ["z = [one(1), one(2), one(3), one(4), one(5), one(6), one(7), one(8), one('a')]"],
    "error_after_wide_statement": [
        "z = [one(1), one(2), one(3), one(4), one(5), one(6), one(7), one(8), one(9)]",
        "w = one(z[0]) + 'a'",
    ],
    # method calls on a variable (MethodReceiver, MethodCall)
    "method_undefined_receiver": ["z = later.append(1)", "later = []"],
    "method_receiver_before_argument": ["z = later.append(other)", "later = []", "other = 1"],
    "method_undefined_argument": ["xs = []", "xs.append(later)", "later = 1"],
    "method_error_in_argument": ["xs = []", "xs.append(one('a'))"],
    "method_of_another_kind": ["xs = [1]", "z = xs.upper()"],
    "method_on_number": ["n = 5", "n.append(1)"],
    "method_arity": ["d = {}", "z = d.get()"],
    "method_error_inside": ["s = 'a,b'", "z = s.split(1)"],
    "method_changes_global": ["z = global_list.append(2)"],
    # `x = d[k]` (LoadItem): the walker's statement when it is not a dict's item
    "item_missing_key": ["d = {'a': 1}", "k = 'b'", "z = d[k]"],
    "item_undefined_base": ["z = later[0]", "later = {}"],
    "item_undefined_key": ["d = {}", "z = d[later]", "later = 1"],
    "item_list_out_of_range": ["xs = [1]", "z = xs[3]"],
    "item_key_of_another_kind": ["d = {'a': 1}", "k = 1.5", "z = d[k]"],
    "item_of_number": ["n = 5", "z = n['a']"],
    # `d[k] = v` (StoreItem): the value first, then the base, then the key;
    # assign()'s store when it is not a dict's key or a list's item in range
    "store_undefined_value": ["d = {}", "d['a'] = later", "later = 1"],
    "store_value_before_base": ["later[0] = other", "later = {}", "other = 1"],
    "store_undefined_base": ["later[0] = 1", "later = {}"],
    "store_undefined_key": ["d = {}", "d[later] = 1", "later = 1"],
    "store_error_in_value": ["d = {}", "d['a'] = one('x')"],
    "store_list_out_of_range": ["xs = [1]", "xs[3] = 2"],
    "store_list_negative_out_of_range": ["xs = [1]", "k = -2", "xs[k] = 2"],
    "store_list_str_key": ["xs = [1]", "xs['a'] = 2"],
    "store_key_of_another_kind": ["d = {}", "k = 1.5", "d[k] = 1"],
    "store_into_number": ["n = 5", "n['a'] = 1"],
    "store_into_str": ["s = 'ab'", "s[0] = 'c'"],
    "store_into_tuple": ["t = (1, 2)", "t[0] = 5"],
    "store_into_global": ["global_list[0] = 5"],
    # `k in d` (Member, JumpOnMember): the walker's when it is not a dict's or a set's key
    "member_undefined_left": ["d = {}", "b = later in d", "later = 1"],
    "member_undefined_right": ["k = 1", "b = k in later", "later = {}"],
    "member_of_number": ["n = 5", "b = 1 in n"],
    "member_str_in_str_needs_str": ["s = 'ab'", "b = 1 in s"],
    "member_key_of_another_kind": ["d = {}", "k = 1.5", "b = k in d"],
    "member_condition_of_number": ["n = 5", "if 1 not in n:", "    pass"],
    "member_condition_undefined": ["d = {}", "while later in d:", "    pass", "later = 1"],
    # `if xs[k]` (JumpOnItem): the walker's condition when it is not a number in a list or a tuple
    "item_condition_undefined_base": ["if later[0]:", "    pass", "later = [1]"],
    "item_condition_undefined_key": ["xs = [1]", "if xs[later]:", "    pass", "later = 0"],
    "item_condition_out_of_range": ["xs = [1]", "if xs[3]:", "    pass"],
    "item_condition_missing_key": ["d = {}", "k = 'a'", "if d[k]:", "    pass"],
    "item_condition_float_index": ["xs = [1]", "k = 0.5", "while xs[k]:", "    pass"],
    "item_condition_of_number": ["n = 5", "if not n[0]:", "    pass"],
    "item_condition_tensor_truth": ["xs = [tensor([1.0, 2.0])]", "if xs[0] and True:", "    pass"],
    # `xs[k] op= v` (AugItem): the walker's statement when it is not a number in a list
    "aug_item_undefined_base": ["later[0] += 1", "later = [1]"],
    "aug_item_undefined_key": ["xs = [1]", "xs[later] += 1", "later = 0"],
    "aug_item_undefined_value": ["xs = [1]", "xs[0] += later", "later = 1"],
    "aug_item_out_of_range": ["xs = [1]", "k = 2", "xs[k] *= 3"],
    "aug_item_division_by_zero": ["xs = [7]", "z = 0", "xs[0] //= z"],
    "aug_item_of_str": ["s = ['a']", "s[0] += 1"],
    "aug_item_missing_key": ["d = {}", "d['a'] += 1"],
    "aug_item_into_number": ["n = 5", "n[0] -= 1"],
    "aug_item_float_index": ["xs = [1]", "k = 0.0", "xs[k] += 1"],
    # a builtin on variables or literals (CallBuiltin): call_on_numbers, else the general call
    "builtin_on_variable_error": ["n = one(1)", "z = len(n)"],
    "builtin_undefined_argument": ["z = len(later)", "later = [1]"],
    "builtin_second_argument_undefined": ["a = 1", "z = max(a, later)", "later = 2"],
    "builtin_two_arguments_error": ["xs = [1]", "z = max(xs, 2)"],
    "builtin_arity": ["a = 1", "z = abs(a, a)"],
    "builtin_on_string_then_error": ["s = '12'", "z = int(s) + 'a'"],
    "builtin_shadowed_by_local": ["len = one", "xs = [1, 2]", "z = len(xs)"],
    # a closure's enclosing variables read in place (a Copy), lambdas' bodies as body code
    "enclosing_undefined_callee": ["def inner(x):", "    return later(x)", "z = inner(1)", "later = one"],
    "enclosing_undefined_argument": ["def inner(x):", "    return one(later)", "z = inner(1)", "later = 2"],
    "enclosing_error_in_callee": ["g = one", "def inner(x):", "    return g(x)", "z = inner('a')"],
    "lambda_error": ["g = lambda x: x + 'a'", "z = g(1)"],
    "lambda_undefined_enclosing": ["g = lambda x: later(x)", "z = g(1)", "later = one"],
    "lambda_error_in_call": ["g = lambda x: one(x)", "z = g('a')"],
    "lambda_tensor_op_error": ["g = lambda t: t.reshape(7)", "z = g(zeros(6))"],
    "lambda_missing_argument": ["g = lambda a, b: a + b", "z = g(1)"],
    "lambda_recursion_limit": ["g = lambda n: g(n + 1)", "z = g(0)"],
    "lambda_as_sort_key": ["xs = [3, 'a', 1]", "z = sorted(xs, key=lambda v: v + 1)"],
    # `x[lo:hi]` of a variable (SliceOf): a string's, list's or tuple's run at once, else the walker's subscript
    "slice_undefined_base": ["z = later[0:1]", "later = 'ab'"],
    "slice_undefined_bound": ["s = 'abc'", "z = s[later:]", "later = 1"],
    "slice_float_bound": ["s = 'abc'", "k = 1.5", "z = s[0:k]"],
    "slice_str_bound": ["xs = [1, 2]", "k = 'a'", "z = xs[k:]"],
    "slice_of_dict": ["d = {0: 1}", "z = d[0:1]"],
    "slice_of_number": ["n = 5", "k = 1", "z = n[k:]"],
    "slice_computed_bound_error": ["s = 'abc'", "k = 0", "z = s[1 // k:]"],
    "slice_of_tensor_then_error": ["t = tensor([1, 2, 3])", "k = 1", "z = t[k:] + [1]"],
    "slice_bool_bound_then_error": ["xs = [1, 2, 3]", "b = True", "z = xs[b:] + 1"],
    "slice_then_error": ["s = 'abcdef'", "i = 1", "k = 2", "z = s[i:i + k] + 1"],
    # `x = xs[k]` (LoadItem) of a list or a tuple: the walker's statement when there is no such item
    "item_tuple_out_of_range": ["t = (1, 2)", "k = -3", "z = t[k]"],
    "item_list_bool_key": ["xs = [1, 2]", "k = True", "z = xs[k] + 'a'"],
    "item_list_str_key": ["xs = [1, 2]", "k = 'a'", "z = xs[k]"],
    "item_list_then_error": ["xs = [[1], 2]", "k = 0", "z = xs[k]", "z = z + 'a'"],
    # `xs[k] = <number>` (StoreNumber): the walker's statement when the number or the item is not there
    "store_number_out_of_range": ["xs = [1, 2]", "k = 1", "xs[k + 1] = 5"],
    "store_number_value_out_of_range": ["xs = [1, 2]", "ys = [3]", "k = 1", "xs[0] = ys[k]"],
    "store_number_undefined_value": ["xs = [1, 2]", "k = 0", "xs[k + 1] = later", "later = 1"],
    "store_number_undefined_base": ["k = 0", "later[k + 1] = 2 * k", "later = [1, 2]"],
    "store_number_into_tuple": ["t = (1, 2)", "k = 0", "t[k] = k * 2"],
    "store_number_into_str": ["s = 'ab'", "k = 0", "s[k + 1] = 1"],
    "store_number_float_key": ["xs = [1, 2]", "k = 1", "xs[k / 2] = 3"],
    "store_number_division_by_zero": ["xs = [1, 2]", "k = 0", "xs[k] = 5 // k"],
    "store_number_of_list_then_error": ["xs = [1, 2]", "ys = [[1], 2]", "k = 0", "xs[k + 1] = ys[k]", "z = xs[1] + 1"],
    "store_number_undefined_key": ["xs = [1, 2]", "xs[later] = 2 * 3", "later = 0"],
    "store_number_str_key": ["xs = [1]", "k = 'a'", "xs[k] = xs[0] + 1"],
    "store_number_into_dict": ["d = {}", "k = 1", "d[k + 1] = k * 3", "z = d[3]"],
    # an item of a variable as a value (Item), a negation (Negate), a small display of them (Sequence)
    "item_value_missing_key": ["d = {'a': 1}", "z = one(d['b'])"],
    "item_value_out_of_range": ["xs = [1, 2]", "k = 2", "z = pair(xs[k], 1)"],
    "item_value_undefined_base": ["z = pair(later[0], 1)", "later = [1]"],
    "item_value_undefined_key": ["xs = [1]", "z = pair(xs[later], 1)", "later = 0"],
    "item_value_of_str_then_error": ["s = 'abc'", "k = 1", "z = one(s[k])"],
    "item_value_float_key": ["xs = [1, 2]", "k = 0.5", "z = (xs[k], 1)"],
    "negate_str": ["s = 'a'", "z = (-s, 1)"],
    "negate_bool": ["b = True", "z = pair(-b, 1)"],
    "negate_undefined": ["z = (1, -later)", "later = 1"],
    "negate_item_then_error": ["xs = [3, -4.5]", "z = [-xs[0], -xs[1]]", "z = z + 1"],
    "display_item_error": ["xs = [1]", "d = {}", "z = [xs[0], d['missing']]"],
    "sort_key_display_error": ["rs = [{'a': 1}, {'a': 2}, {'b': 3}]", "z = sorted(rs, key=lambda r: (-r['a'], r['a']))"],
    # a function called by a builtin (a sort's key, map's, filter's): its body code entered from its second call
    "sort_key_error": ["xs = sorted([3, 1, 2, 5], key=lambda v: one(v) + ('a' if v == 2 else 0))"],
    "map_function_error": ["ys = list(map(lambda v: 10 // (v - 2), [5, 4, 2]))"],
    "filter_def_error": ["def keep(v):", "    return v[0] > 0", "z = list(filter(keep, [[1], [2], 3]))"],
    "sort_key_undefined": ["def key(v):", "    if v == 1:", "        return later", "    later = v", "    return v",
                           "xs = sorted([3, 2, 1], key=key)"],
    # bitwise operators and powers of numbers (scalar programs): the general path's errors
    "bitwise_of_float": ["x = 1.5", "k = 2", "z = x & k"],
    "shift_by_negative": ["k = -1", "z = 8 >> k"],
    "power_negative_int": ["k = -2", "z = 3 ** k"],
    "bitwise_of_str": ["s = 'a'", "z = s | 1"],
    "nested_loops_deeper_than_compiled": [
        "for a in range(1):",
        "    for b in range(1):",
        "        for c in range(1):",
        "            for d in range(1):",
        "                for e in range(1):",
        "                    z = one(e) + 'a'",
    ],
}


def script(lines):
    body = ["def f():"] + ["    " + line for line in lines]
    return "\n".join(SETUP + body + ["", "", "print(\"start\")", "f()", ""])


def main():
    for name, lines in CASES.items():
        (here / f"{name}.tg").write_text(
            f"# Generated by make_cases.py: an error inside a function body ({name}).\n" + script(lines)
        )


if __name__ == "__main__":
    main()
