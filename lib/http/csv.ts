/** Characters a spreadsheet reads as the start of a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@]/;

/**
 * Leading tabs, carriage returns and line feeds: spreadsheets skip them before reading the formula that follows,
 * and a line feed would start a line of the file with it, so they are dropped before the check.
 */
const LEADING_BLANKS = /^[\t\r\n]+/;

/**
 * One CSV cell: leading tabs and line breaks dropped, then a value that could be run as a formula gets a leading
 * single quote (OWASP's recommendation, so the spreadsheet shows it as text), and every cell with a quote, comma,
 * line feed or carriage return is quoted.
 */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value).replace(LEADING_BLANKS, "");
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
