// Contracts of the api-keys capability (filled in by that capability).
export {};
