import _HorariFuzzing

// Fuzzes the rule parser and expander (see `FuzzTarget.recurrence`).
#if FUZZING
/// The executable's `main` as SwiftPM links it (`--defsym main=FuzzRecurrence_main`): hands over to libFuzzer.
@_cdecl("FuzzRecurrence_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    FuzzDriver.run(.recurrence, argc, argv)
}
#else
/// Built without the fuzzer (`swift build`), the target replays inputs.
@main
enum ReplayRecurrence {
    static func main() { FuzzReplay.run(.recurrence) }
}
#endif
