#if FUZZING
import CLibFuzzer

/// Hands the process over to libFuzzer (built with `-sanitize=fuzzer -DFUZZING`).
public enum FuzzDriver {
    /// Runs libFuzzer's driver on `target` with the process's arguments.
    public static func run(_ target: FuzzTarget, _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        var count = argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        // libFuzzer takes a C function, which captures nothing: one per target.
        let callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
        switch target {
        case .icalendarImport:
            callback = { FuzzTarget.icalendarImport.runOrTrap(UnsafeRawBufferPointer(start: $0, count: $1)); return 0 }
        case .recurrence:
            callback = { FuzzTarget.recurrence.runOrTrap(UnsafeRawBufferPointer(start: $0, count: $1)); return 0 }
        }
        return LLVMFuzzerRunDriver(&count, &arguments, callback)
    }
}
#endif
