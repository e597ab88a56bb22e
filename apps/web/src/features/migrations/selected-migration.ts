/** The hand-over key of spec.md: history pages store an id here and go to /migrations. */
export const SELECTED_MIGRATION_KEY = 'selectedMigrationId';

export function rememberSelectedMigration(id: string): void {
  localStorage.setItem(SELECTED_MIGRATION_KEY, id);
}

/** Returns the saved id once and clears it. */
export function takeSelectedMigration(): string | null {
  const id = localStorage.getItem(SELECTED_MIGRATION_KEY);
  if (id) localStorage.removeItem(SELECTED_MIGRATION_KEY);
  return id;
}
