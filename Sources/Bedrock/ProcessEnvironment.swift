import FoundationEssentials

/// The environment Linnet was started with, read once. `ProcessInfo.environment` builds a new
/// dictionary on every call (about 390,000 instructions for 40 variables), and the reader's
/// start asked for it 25 times before its first frame. Linnet never changes its own environment.
public enum ProcessEnvironment {
    public static let values: [String: String] = ProcessInfo.processInfo.environment
}
