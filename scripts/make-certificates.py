#!/usr/bin/env python3
"""Regenerates the simulated identity provider's X.509 chains.

Run from the repository root: python3 scripts/make-certificates.py
Needs the `cryptography` package (pip install cryptography). The output is committed;
this script exists so that the provenance of those files is on record.

- genuinePEM:  the IdP's genuine chain (leaf, then root). IdpSdkService pins it by default.
- impostorPEM: a chain with the same subject names under a different root, which the
               IdP presents when the "certificate pinning fails" fault is on.
Both are written as string literals into Sources/IdentityProvider/IdentityProviderCertificates.swift: compiled in,
not a resource bundle, which a copied binary would not find.
Both are valid from 2025-01-01 to 2125-01-01 so that tests do not expire.
"""
import datetime, pathlib
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

NOT_BEFORE = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
NOT_AFTER = datetime.datetime(2125, 1, 1, tzinfo=datetime.timezone.utc)
HOST = "idp.demo.idp-tui.test"

def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "idp-tui simulation"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])

def chain(serial_base):
    root_key = ec.generate_private_key(ec.SECP256R1())
    root = (x509.CertificateBuilder().subject_name(name("idp-tui Simulated Root CA"))
            .issuer_name(name("idp-tui Simulated Root CA")).public_key(root_key.public_key())
            .serial_number(serial_base + 1).not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .sign(root_key, hashes.SHA256()))
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    leaf = (x509.CertificateBuilder().subject_name(name(HOST)).issuer_name(root.subject)
            .public_key(leaf_key.public_key()).serial_number(serial_base + 2)
            .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(HOST)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .sign(root_key, hashes.SHA256()))
    return b"".join(c.public_bytes(serialization.Encoding.PEM) for c in (leaf, root))

def literal(pem):
    lines = pem.decode().rstrip("\n").split("\n")
    # The empty last line keeps the PEM's final newline (a literal drops the one before its closing quotes).
    return '"""\n' + "".join(f"        {line}\n" for line in lines) + '\n        """'

HEADER = """// The IdP's certificate chains, compiled in rather than shipped as a resource bundle: SwiftPM looks for a bundle
// beside the executable, then in the build directory it was built in, so a copied or installed binary crashed at
// its first IdP (every flow, even `run logout`) once that directory was gone, and Foundation's bundle lookup read
// the executable's whole directory at each start (30 ms in a directory of 25,000 files).
// scripts/make-certificates.py writes this file.
"""

out = pathlib.Path("Sources/IdentityProvider/IdentityProviderCertificates.swift")
out.write_text(HEADER + f"""
/// The certificate chains the simulated IdP presents.
public enum IdentityProviderCertificates {{
    /// The IdP's genuine chain (leaf, root) as PEM: what `IdpSdkService` pins by default.
    public static let genuinePEM = {literal(chain(1000))}

    /// A chain with the same names under another root, presented when certificate pinning is made to fail.
    public static let impostorPEM = {literal(chain(9000))}
}}
""")
print("wrote", out)
