#if FUZZING
import CLibFuzzer

/// Hands the process over to libFuzzer (built with `-sanitize=fuzzer -DFUZZING`).
public enum FuzzDriver {
    /// Runs libFuzzer's driver with the process's arguments and `callback` as the target.
    public static func run(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                           _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
        var count = argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return LLVMFuzzerRunDriver(&count, &arguments, callback)
    }
}
#endif
