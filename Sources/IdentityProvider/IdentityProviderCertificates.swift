import Crypto
import Dispatch
import Foundation

// The IdP's certificate chains, compiled in rather than shipped as a resource bundle: SwiftPM looks for a bundle
// beside the executable, then in the build directory it was built in, so a copied or installed binary crashed at
// its first IdP (every flow, even `run logout`) once that directory was gone, and Foundation's bundle lookup read
// the executable's whole directory at each start (30 ms in a directory of 25,000 files).
// scripts/make-certificates.py writes this file.

/// The certificate chains the simulated IdP presents.
public enum IdentityProviderCertificates {
    /// The IdP's genuine chain (leaf, root) as PEM: what `IdpSdkService` pins by default.
    public static let genuinePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBojCCAUigAwIBAgICA+owCgYIKoZIzj0EAwIwQTEbMBkGA1UECgwSaWRwLXR1
        aSBzaW11bGF0aW9uMSIwIAYDVQQDDBlpZHAtdHVpIFNpbXVsYXRlZCBSb290IENB
        MCAXDTI1MDEwMTAwMDAwMFoYDzIxMjUwMTAxMDAwMDAwWjA9MRswGQYDVQQKDBJp
        ZHAtdHVpIHNpbXVsYXRpb24xHjAcBgNVBAMMFWlkcC5kZW1vLmlkcC10dWkudGVz
        dDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABH5NyYQOdvvY3deyJwXXEnE41MJT
        KM4iUKoc624uXE8Jf36SOANT/AdDrUBd+WQ8NX5vFO7j0IVJcavWXbnHIsOjMjAw
        MCAGA1UdEQQZMBeCFWlkcC5kZW1vLmlkcC10dWkudGVzdDAMBgNVHRMBAf8EAjAA
        MAoGCCqGSM49BAMCA0gAMEUCIElRrqYPBMLx93HHmoy30S+FJrt2quecYputVU9F
        ZvVdAiEA2gm8TdrnLHJGjZiKdXcfJIdWhJ5pTby/sZDZpb4Fsl0=
        -----END CERTIFICATE-----
        -----BEGIN CERTIFICATE-----
        MIIBizCCATCgAwIBAgICA+kwCgYIKoZIzj0EAwIwQTEbMBkGA1UECgwSaWRwLXR1
        aSBzaW11bGF0aW9uMSIwIAYDVQQDDBlpZHAtdHVpIFNpbXVsYXRlZCBSb290IENB
        MCAXDTI1MDEwMTAwMDAwMFoYDzIxMjUwMTAxMDAwMDAwWjBBMRswGQYDVQQKDBJp
        ZHAtdHVpIHNpbXVsYXRpb24xIjAgBgNVBAMMGWlkcC10dWkgU2ltdWxhdGVkIFJv
        b3QgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATWxwkkYgt+yphsLXEC3PFw
        dXq+xCjNTxzmbXW/Z3vB12/SRCgT6buPRDD9WOMIQ6Xd0q1YRHZpynr7QO0JK0pd
        oxYwFDASBgNVHRMBAf8ECDAGAQH/AgEAMAoGCCqGSM49BAMCA0kAMEYCIQDilgJe
        mVNJLvN2YumXeKYhhmPdShFw4pLF3fsfZJ9pvAIhAN+LIz69MP+UU2hA/P1K5v3V
        HbxcdYYw0aNYU4F0KAIl
        -----END CERTIFICATE-----

        """

    /// Both chains parsed, once a process: OpenSSL 3 loads its decoders at the first certificate it reads, which
    /// took 4.6 ms of a 15 ms `run logout` (more than everything a scenario's users cost to read).
    static let parsed: (genuine: CertificateChain, impostor: CertificateChain) = {
        do {
            return (try CertificateChain.parsed(pem: genuinePEM), try CertificateChain.parsed(pem: impostorPEM))
        } catch {
            preconditionFailure("the bundled IdP certificate chains do not parse: \(error)")
        }
    }()

    /// Whether an app that pins `asset` (PEM or DER, as `IdpSdkService` reads it) accepts the IdP's own chain.
    public static func pinsGenuineChain(_ asset: Data) -> Bool {
        guard let pins = try? CertificateChain.parsed(asset: asset) else { return false }
        return parsed.genuine.isPinned(by: pins)
    }

    /// Parses both chains, and loads libcrypto's algorithms, on another thread; an ``IdentityProvider`` made
    /// meanwhile waits for what it needs of them. Neither depends on the scenario, so a start-up that calls this
    /// first reads its scenario (and opens its state file) while they load: with the 10,000-user scenario, that
    /// read took 3.5 ms, hidden behind this load on two cores.
    public static func prepareInBackground() {
        DispatchQueue.global(qos: .userInitiated).async {
            LibCrypto.load()
            _ = parsed
        }
    }

    /// A chain with the same names under another root, presented when certificate pinning is made to fail.
    public static let impostorPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBozCCAUigAwIBAgICIyowCgYIKoZIzj0EAwIwQTEbMBkGA1UECgwSaWRwLXR1
        aSBzaW11bGF0aW9uMSIwIAYDVQQDDBlpZHAtdHVpIFNpbXVsYXRlZCBSb290IENB
        MCAXDTI1MDEwMTAwMDAwMFoYDzIxMjUwMTAxMDAwMDAwWjA9MRswGQYDVQQKDBJp
        ZHAtdHVpIHNpbXVsYXRpb24xHjAcBgNVBAMMFWlkcC5kZW1vLmlkcC10dWkudGVz
        dDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABLTo7025nJVwAIBTA2X+3iRcoSix
        /YK3qo3+OqLY29MdricXOHZx1E4u1w1K1TCjJmuqZUmKCN0X7ryWJwXiAiSjMjAw
        MCAGA1UdEQQZMBeCFWlkcC5kZW1vLmlkcC10dWkudGVzdDAMBgNVHRMBAf8EAjAA
        MAoGCCqGSM49BAMCA0kAMEYCIQCIq9YhVpz+FF7bopD0Wb8y7U9vmdYfpue4FxUl
        WYlQIAIhAJdfFyXQCmi+ZsH9jIkRaxUyGzxU7TDwblxxleEAKLtC
        -----END CERTIFICATE-----
        -----BEGIN CERTIFICATE-----
        MIIBizCCATCgAwIBAgICIykwCgYIKoZIzj0EAwIwQTEbMBkGA1UECgwSaWRwLXR1
        aSBzaW11bGF0aW9uMSIwIAYDVQQDDBlpZHAtdHVpIFNpbXVsYXRlZCBSb290IENB
        MCAXDTI1MDEwMTAwMDAwMFoYDzIxMjUwMTAxMDAwMDAwWjBBMRswGQYDVQQKDBJp
        ZHAtdHVpIHNpbXVsYXRpb24xIjAgBgNVBAMMGWlkcC10dWkgU2ltdWxhdGVkIFJv
        b3QgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATFMZ8ngTDmGEqT2c97FaOV
        7v7wb3QV937KvcMvzSlFzTl1XSJFMxq9qFgyz4O4aNcjhYiELervfuiaWDLWZcTh
        oxYwFDASBgNVHRMBAf8ECDAGAQH/AgEAMAoGCCqGSM49BAMCA0kAMEYCIQDJuGVm
        jHiqrCrBAzyEMqMLNKbFCzVO4qpFsyzb8HltaQIhAOodwapvecm2w0aiZgR9o9jh
        aZYYwz60sgCTe/r6aa8y
        -----END CERTIFICATE-----

        """
}
