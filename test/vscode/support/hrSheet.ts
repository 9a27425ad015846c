// The HR sheet the import suites start from: its header row, and the answers that map its columns onto acme.

/** The header row of HR's sheet, as the spreadsheet writes it (CRLF). */
export const HEADER = 'First name,Last name,Email,Department,Start date\r\n';
/** The import's mapping questions, answered for this sheet and acme. */
export const MAPPING_ANSWERS = {
  'pick.account': 'Acme Corporation',
  'import.columns': 'Use These Columns',
  'import.dateFormat': 'dd/mm/yyyy',
  'import.departments': 'Use This Table',
  'import.usernames': 'first.last',
};
