/**
 * Characters a spreadsheet reads as the start of a formula (OWASP "CSV injection"): `=`, `+`, `-`, `@`, and a
 * leading tab or carriage return, which some spreadsheets skip before reading the `=` that follows.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell: a value that could be run as a formula gets a leading single quote (OWASP's recommendation, so
 * the spreadsheet shows it as text), and every cell with a quote, comma, line feed or carriage return is quoted.
 */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows of cells as CSV text, one line each, ending with a line break. */
export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return rows
    .map((row) => row.map(csvCell).join(","))
    .join("\n")
    .concat("\n");
}
