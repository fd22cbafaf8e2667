#include "lang/ast.hpp"

namespace tg::lang {

const char* to_string(UnaryOp op) {
    switch (op) {
        case UnaryOp::Neg: return "-";
        case UnaryOp::Pos: return "+";
        case UnaryOp::Not: return "not";
        case UnaryOp::Invert: return "~";
    }
    return "?";
}

const char* to_string(BinOp op) {
    switch (op) {
        case BinOp::Add: return "+";
        case BinOp::Sub: return "-";
        case BinOp::Mul: return "*";
        case BinOp::Div: return "/";
        case BinOp::FloorDiv: return "//";
        case BinOp::Mod: return "%";
        case BinOp::Pow: return "**";
        case BinOp::MatMul: return "@";
        case BinOp::BitAnd: return "&";
        case BinOp::BitOr: return "|";
        case BinOp::BitXor: return "^";
        case BinOp::LShift: return "<<";
        case BinOp::RShift: return ">>";
    }
    return "?";
}

const char* to_string(CmpOp op) {
    switch (op) {
        case CmpOp::Eq: return "==";
        case CmpOp::Ne: return "!=";
        case CmpOp::Lt: return "<";
        case CmpOp::Le: return "<=";
        case CmpOp::Gt: return ">";
        case CmpOp::Ge: return ">=";
        case CmpOp::In: return "in";
        case CmpOp::NotIn: return "not in";
        case CmpOp::Is: return "is";
        case CmpOp::IsNot: return "is not";
    }
    return "?";
}

}  // namespace tg::lang
