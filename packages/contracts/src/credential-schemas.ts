// Contracts of the credential-schemas capability (filled in by that capability).
export {};
