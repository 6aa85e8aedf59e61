/** localStorage key of the organization the user acts for (sent as the CurrentIdentity header). */
export const CURRENT_IDENTITY_KEY = 'current_identity';

export function getStoredIdentity(): string | null {
  try {
    return window.localStorage.getItem(CURRENT_IDENTITY_KEY);
  } catch {
    return null;
  }
}

export function storeIdentity(id: string): void {
  window.localStorage.setItem(CURRENT_IDENTITY_KEY, id);
}

export function clearIdentity(): void {
  window.localStorage.removeItem(CURRENT_IDENTITY_KEY);
}

/** Spec §4: the stored choice if it is still in the list, otherwise the first organization. */
export function pickCurrentIdentity<T extends { id: string }>(list: readonly T[], storedId: string | null): T | null {
  return list.find((item) => item.id === storedId) ?? list[0] ?? null;
}
