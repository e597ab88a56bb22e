import { spawn } from 'node:child_process';

// Development: the API server restarts on change, and Vite serves the web app with hot reload on
// http://127.0.0.1:5173, forwarding API paths to the server (see apps/web/vite.config.ts).
const children = [
  spawn(
    process.execPath,
    ['--watch', '--disable-warning=ExperimentalWarning', 'apps/server/src/main.ts'],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://127.0.0.1:5173',
      },
    },
  ),
  spawn('npm', ['run', 'dev', '-w', '@replatform/web'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
