/** The access matrix CSV's column names as the host passes them (in English), with the group column's word. */
export function csvHeaders(level: string) {
  return {
    username: 'Username',
    name: 'Name',
    email: 'E-mail',
    tags: 'Tags',
    lastActive: 'Last active',
    state: 'State',
    permission: 'Organisation permission',
    level,
    never: 'never',
  };
}
