// `npm test` and `npm start` run on the Node 24 that `npm install` brings (the `node` package puts
// it first on the PATH of npm scripts). Fail early and clearly if something else is running.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `Replatform needs Node.js 24 or newer, but this is ${process.version}. Run the commands through npm (npm start, npm test) after npm install, which brings Node 24.`,
  );
  process.exit(1);
}
