import Foundation
import IdentityProvider
import StateStore
import Testing

/// The IdP's device bindings in the state file, written by two processes.
@Suite struct StateBindingTests {
    @Test func anIdBoundByOneProcessIsNotTakenOverByAnother() throws {
        let path = freshStatePath()
        let first = try StateFile(path: path)
        let second = try StateFile(path: path)
        defer {
            first.close()
            second.close()
        }
        let alice = DeviceBinding(username: "alice", tenant: "demo", deviceID: "device-1")
        let bob = DeviceBinding(username: "bob", tenant: "demo", deviceID: "device-1")
        #expect(try first.identityProviderStore.bindNew(astClientId: "5DWZ0YXZ0G97BGK5N011CH3N68", to: alice))
        #expect(try !second.identityProviderStore.bindNew(astClientId: "5DWZ0YXZ0G97BGK5N011CH3N68", to: bob))
        #expect(try second.identityProviderStore.binding(astClientId: "5DWZ0YXZ0G97BGK5N011CH3N68") == alice)
        #expect(try second.identityProviderStore.bindNew(astClientId: "MB038KHWEFHJH3VK96AXP6FZ77", to: bob))
    }
}
