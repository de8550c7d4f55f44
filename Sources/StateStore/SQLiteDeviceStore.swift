import Determinism
import KSMasterController

/// The device's store in the state file: its one row (`device`, id 1).
final class SQLiteDeviceStore: DeviceStore {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    private static let select = """
        SELECT device_id, tenant, user_id, ast_client_id, auth_mode, access_token_hash, offline_token_hash, offline_expires_at
        FROM device WHERE id = 1
        """

    private static func device(_ row: [SQLValue]?) -> PersistedDevice? {
        guard let row, let deviceID = row[0].text else { return nil }
        var device = PersistedDevice(deviceID: deviceID)
        if let tenant = row[1].text, let user = row[2].text, let ast = row[3].text,
            let mode = row[4].text.flatMap(KSMAuthenticationMode.init(rawValue:))
        {
            device.activation = PersistedDevice.Activation(
                user: KsUserIdentifier(tenantId: tenant, userId: user), astClientId: ast, authenticationMode: mode)
        }
        device.accessTokenHash = row[5].blob
        if let hash = row[6].blob, let expires = row[7].integer {
            device.offlineToken = PersistedDevice.OfflineToken(hash: hash, expiresAt: SimulationInstant(nanosecondsSinceEpoch: expires))
        }
        return device
    }

    /// The device's row, read by `query` (the connection's, or a transaction's). A damaged device page reads as no
    /// row: the table is checked then (one page; ``Database/damage(checked:)``).
    private func row(_ query: (String) throws(StateError) -> [[SQLValue]]) throws(StateError) -> [SQLValue]? {
        let row = try query(Self.select).first
        if row == nil, let damage = database.damage(checked: try query("PRAGMA quick_check(device)")) { throw damage }
        return row
    }

    func load() throws(StoreFailure) -> PersistedDevice? {
        do throws(StateError) {
            return Self.device(try row { sql throws(StateError) in try database.query(sql) })
        } catch {
            throw StoreFailure(error.description)
        }
    }

    func update<T>(_ body: (inout PersistedDevice?) -> T) throws(StoreFailure) -> T {
        do {
            return try database.write { transaction throws(StateError) -> T in
                var device = Self.device(try row { sql throws(StateError) in try transaction.query(sql) })
                let value = body(&device)
                if let device {
                    let activation = device.activation
                    _ = try transaction.query(
                        """
                        INSERT OR REPLACE INTO device (id, device_id, tenant, user_id, ast_client_id, auth_mode, access_token_hash,
                            offline_token_hash, offline_expires_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        [.text(device.deviceID), activation.map { .text($0.user.tenantId) } ?? .null,
                         activation.map { .text($0.user.userId) } ?? .null, activation.map { .text($0.astClientId) } ?? .null,
                         activation.map { .text($0.authenticationMode.rawValue) } ?? .null,
                         device.accessTokenHash.map { .blob($0) } ?? .null, device.offlineToken.map { .blob($0.hash) } ?? .null,
                         device.offlineToken.map { .integer($0.expiresAt.nanosecondsSinceEpoch) } ?? .null])
                } else {
                    _ = try transaction.query("DELETE FROM device")
                }
                return value
            }
        } catch {
            throw StoreFailure(error.description)
        }
    }
}
