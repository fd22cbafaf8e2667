// Placeholder until the tracer lands (tracer issue).
namespace tg::tracer {
int tracer_placeholder() { return 0; }
}
