/**
 * `@cp/credentials/mdoc`: ISO mdoc issuance, presentation and verification. A separate entry from the
 * package's index because @owf/mdoc registers its CBOR extensions when loaded (and declares no
 * `sideEffects: false`), so a bundle importing the index would carry it and cbor-x whether it uses mdocs or
 * not: the wallet's home screen has a size budget, and only its present and receive routes need mdocs.
 */
export * from './mdoc.ts';
export * from './mdoc-verify.ts';
