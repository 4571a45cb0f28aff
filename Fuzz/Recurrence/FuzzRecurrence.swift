import _HorariFuzzing

// One input through the rule parser and expander (see `FuzzTarget.recurrence`).
#if FUZZING
/// The executable's `main` as SwiftPM links it: hands over to libFuzzer.
@_cdecl("FuzzRecurrence_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    FuzzDriver.run(argc, argv) { data, size in
        FuzzTarget.recurrence.runOrTrap(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}
#else
/// Built without the fuzzer (`swift build`), the target replays inputs.
@main
enum ReplayRecurrence {
    static func main() { FuzzReplay.run(.recurrence) }
}
#endif
