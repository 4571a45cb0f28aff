import _HorariFuzzing

// One input through the importer (see `FuzzTarget.icalendarImport`).
#if FUZZING
/// The executable's `main` as SwiftPM links it: hands over to libFuzzer.
@_cdecl("FuzzICalendarImport_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    FuzzDriver.run(argc, argv) { data, size in
        FuzzTarget.icalendarImport.runOrTrap(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}
#else
/// Built without the fuzzer (`swift build`), the target replays inputs.
@main
enum ReplayICalendarImport {
    static func main() { FuzzReplay.run(.icalendarImport) }
}
#endif
