import _HorariFuzzing

// Fuzzes the importer (see `FuzzTarget.icalendarImport`).
#if FUZZING
/// The executable's `main` as SwiftPM links it (`--defsym main=FuzzICalendarImport_main`): hands over to libFuzzer.
@_cdecl("FuzzICalendarImport_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    FuzzDriver.run(.icalendarImport, argc, argv)
}
#else
/// Built without the fuzzer (`swift build`), the target replays inputs.
@main
enum ReplayICalendarImport {
    static func main() { FuzzReplay.run(.icalendarImport) }
}
#endif
