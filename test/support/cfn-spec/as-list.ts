/** DependsOn and its kin take one name or a list of names. */
export const asList = (value: string | readonly string[] | undefined): string[] =>
  value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
