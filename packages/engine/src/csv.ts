/**
 * One CSV cell (RFC 4180). Cells a spreadsheet would run as a formula (starting with = + - @,
 * or a tab or carriage return that some programs strip first) are prefixed with an apostrophe,
 * because the report holds text that came from a store anyone could have typed into.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
