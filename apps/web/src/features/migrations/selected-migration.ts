/** The hand-over key of spec.md: history pages store an id here and go to /migrations. */
export const SELECTED_MIGRATION_KEY = 'selectedMigrationId';

export function rememberSelectedMigration(id: string): void {
  localStorage.setItem(SELECTED_MIGRATION_KEY, id);
}

/** The saved id, without clearing it (render code must not change storage). */
export function peekSelectedMigration(): string | null {
  return localStorage.getItem(SELECTED_MIGRATION_KEY);
}

export function forgetSelectedMigration(): void {
  localStorage.removeItem(SELECTED_MIGRATION_KEY);
}

/**
 * spec.md section 2: without a saved id, the dashboard opens the first in-progress migration on
 * load. That happens once per page load, and not after the owner has already been in a
 * migration, so Back to dashboard and the Migrations link still reach the dashboard.
 */
let autoOpenSettled = false;

/** True the first time it is asked in this page load (the dashboard then opens the migration). */
export function claimAutoOpen(): boolean {
  if (autoOpenSettled) return false;
  autoOpenSettled = true;
  return true;
}

/** The owner opened a migration or asked for a dashboard view: no automatic opening any more. */
export function settleAutoOpen(): void {
  autoOpenSettled = true;
}

/** The migration the dashboard opens on load: the first in progress, if any. */
export function firstInProgress<T extends { id: string; status: string }>(
  migrations: readonly T[],
): T | undefined {
  return migrations.find((m) => m.status === 'in-progress');
}
