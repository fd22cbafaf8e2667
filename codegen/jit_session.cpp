// Placeholder until codegen lands (codegen issue).
namespace tg::codegen {
int codegen_placeholder() { return 0; }
}
