#if !LibICal
import Foundation

/// Without the `LibICal` trait the benchmark has no reference to measure
/// against (every figure is a ratio to libical in the same process), so it
/// says so and stops rather than print figures with nothing beside them.
@main
struct HorariBenchWithoutLibICal {
    static func main() {
        FileHandle.standardError.write(Data("HorariBench measures Horari against libical in the same process; build it with the LibICal trait (the default), not --disable-default-traits\n".utf8))
        exit(2)
    }
}
#endif
