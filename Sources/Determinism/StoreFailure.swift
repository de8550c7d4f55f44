/// A store could not read or write (a full disk, a lock held too long by another process …): what every store of
/// the simulation throws, the IdP's, the device's and the flow history's, whichever file or memory keeps them.
public struct StoreFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
