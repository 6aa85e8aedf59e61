// Contracts of the kyb capability (filled in by that capability).
export {};
