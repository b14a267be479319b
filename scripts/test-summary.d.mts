export function summarize(paths: string[], root?: string): { failed: boolean; lines: string[] };
