// Placeholder until the interpreter lands (interp issue).
namespace tg::interp {
int interp_placeholder() { return 0; }
}
