// Runs after `npm install` and `npm ci`. npm itself runs on the machine's own Node, and judges the
// `engines` of dependencies by it; every npm script of the project then runs on the Node 24 that
// the `node` package has just installed into node_modules. Where the machine's Node is older, npm
// has printed EBADENGINE warnings about dependencies that will only ever run on Node 24: say so
// right under them.
const machineNode = /\bnode\/v(\d+)\./.exec(process.env.npm_config_user_agent ?? '')?.[1];
if (machineNode && Number(machineNode) < 24) {
  console.log(
    `Replatform runs on Node ${process.version}, installed into node_modules by npm install; npm itself ran on this machine's Node ${machineNode}. Any EBADENGINE warnings above name dependencies that need a newer Node than ${machineNode}: they run on ${process.version}, so they can be ignored.`,
  );
}
