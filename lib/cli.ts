import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>;

/** A bad command line: the message, then the usage, on stderr; exit code 2. */
export function usageError(usage: string, message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

/**
 * The command line of a script. `--help` or `-h` prints the usage (its first line starts with
 * "Usage") and exits 0 before the script does any work; an unknown option or one positional
 * argument too many is a usage error.
 */
export function commandLine<const O extends Options>(
  usage: string,
  options: O = {} as O,
  { positionals = 0, args = process.argv.slice(2) }: { positionals?: number; args?: string[] } = {},
): Parsed<O> {
  const end = args.indexOf('--');
  const own = end === -1 ? args : args.slice(0, end);
  if (own.includes('--help') || own.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  let parsed: Parsed<O>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    usageError(usage, (error as Error).message);
  }
  if (parsed.positionals.length > positionals)
    usageError(usage, `Unexpected argument '${parsed.positionals[positionals]}'`);
  return parsed;
}
