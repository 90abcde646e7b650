/* SHA-256 and Ed25519 verification for a browser whose WebCrypto lacks them: a page served
 * over plain http from another machine (no crypto.subtle at all: not a secure context), or a
 * browser without WebCrypto's Ed25519. static/audit.js imports this module only then.
 *
 * The libraries are @noble/hashes and @noble/ed25519, copied unchanged from their registry
 * packages into static/vendor/ (versions, the registry's integrity hashes and each file's
 * SHA-256 in static/vendor/VENDORED.json); nothing is loaded from anywhere else. Ed25519 is
 * checked as RFC 8032 and FIPS 186-5 say (`zip215: false`, the library's strict branch), not
 * ZIP-215's looser rules. Verifying only: this browser cannot cosign without WebCrypto. */
import { sha256 as nobleSha256, sha512 } from "./vendor/noble-hashes-2.4.0/sha2.js";
import * as ed from "./vendor/noble-ed25519-3.2.0/index.js";

ed.hashes.sha512 = sha512;

export async function sha256(bytes) {
  return nobleSha256(bytes);
}

export async function verify(publicKey, signature, message) {
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch (e) {
    return false;
  }
}
