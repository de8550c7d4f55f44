#!/usr/bin/env python3
"""Regenerates the simulated identity provider's X.509 chains.

Run from the repository root: python3 scripts/make-certificates.py
Needs the `cryptography` package (pip install cryptography). The output is committed;
this script exists so that the provenance of those files is on record.

- idp-chain.pem:      the IdP's genuine chain (leaf, then root). IdpSdkService pins it by default.
- impostor-chain.pem: a chain with the same subject names under a different root, which the
                      IdP presents when the "certificate pinning fails" fault is on.
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

out = pathlib.Path("Sources/IdentityProvider/Resources")
out.mkdir(parents=True, exist_ok=True)
(out / "idp-chain.pem").write_bytes(chain(1000))
(out / "impostor-chain.pem").write_bytes(chain(9000))
print("wrote", out / "idp-chain.pem", "and", out / "impostor-chain.pem")
