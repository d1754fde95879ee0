/** Where a command writes: the process's streams on the command line, strings in tests. */
export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const processIO: CommandIO = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
};
