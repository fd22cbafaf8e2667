// How many brackets the REPL's input has left open, line by line: while one
// is open the statement cannot be complete, so the REPL reads the next line
// without parsing what it has (parsing the whole input at every line made a
// long piped statement quadratic). Strings end on their line in tg (there are
// no triple-quoted ones) and `#` starts a comment.
#pragma once

#include <string_view>

namespace tg::cli {

class OpenBrackets {
public:
    void feed(std::string_view line) {
        char quote = 0;
        for (size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            if (quote) {
                if (c == '\\') ++i;
                else if (c == quote) quote = 0;
                continue;
            }
            if (c == '#') break;
            if (c == '\'' || c == '"') quote = c;
            else if (c == '(' || c == '[' || c == '{') ++depth_;
            else if (c == ')' || c == ']' || c == '}') {
                if (--depth_ < 0) unsure_ = true;
            }
        }
        if (quote) unsure_ = true;  // an unterminated string: let the parser say
    }
    // True when the input certainly goes on; false: ask the parser.
    bool open() const { return depth_ > 0 && !unsure_; }

private:
    long depth_ = 0;
    bool unsure_ = false;  // a stray closing bracket or string: the parser decides at every line
};

}  // namespace tg::cli
