// Contracts of the media capability (filled in by that capability).
export {};
