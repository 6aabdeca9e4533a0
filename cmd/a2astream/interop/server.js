// An A2A 1.0 agent built with the reference JavaScript SDK (@a2a-js/sdk),
// serving the REST (HTTP+JSON) binding under /a2a/rest and the JSON-RPC
// binding at /a2a/jsonrpc, on 127.0.0.1 and a free port. It prints
// "listening http://127.0.0.1:PORT" once ready, then serves until killed.
//
// The agent streams its answer as token deltas, the way Corti's agentic API
// does, and decides how the run ends from the user's text:
//   - "input ..."  narration, closed as intermediate thinking, then
//                  TASK_STATE_INPUT_REQUIRED with a question;
//   - "fail ..."   narration, closed as intermediate thinking, then
//                  TASK_STATE_FAILED with the failure;
//   - "slow ..."   as below, with 150 ms between deltas, so that a test can
//                  drop the connection and resubscribe mid-answer;
//   - anything else: a WORKING status with narration, the answer's deltas
//                  (accents, CJK, an emoji split between its two UTF-16
//                  halves), a consolidating last chunk, then
//                  TASK_STATE_COMPLETED with $usage.
import express from "express";
import { Role, TaskState } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";

// The texts the Go test expects; keep them in step with interop_test.go.
const ANSWER_DELTAS = ["Café ", "crème ", "brûlée: ", "東京", "の", "天気は", "晴れ ", "\uD83C", "\uDF89", " — naïve résumé."];
const NARRATION = ["Je ", "vérifie ", "le ", "dossier… ", "📋"];
const QUESTION = "Quelle clinique — Rigshospitalet ou Gentofte?";
const FAILURE = "Le connecteur EHR n'a pas répondu (délai 30 s).";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let counter = 0;
const newId = (prefix) => `${prefix}-${Date.now()}-${++counter}`;

function textPart(text) {
  return { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "" };
}

function agentMessage(text, taskId, contextId) {
  return {
    messageId: newId("msg"),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function status(taskId, contextId, state, message, metadata) {
  return AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: { state, message, timestamp: new Date().toISOString() },
    metadata,
  });
}

function chunk(taskId, contextId, artifactId, text, { append, lastChunk, metadata }) {
  return AgentEvent.artifactUpdate({
    taskId,
    contextId,
    artifact: { artifactId, name: "", description: "", parts: [textPart(text)], metadata, extensions: [] },
    append,
    lastChunk,
    metadata: undefined,
  });
}

// stream publishes the deltas of one artifact, the first one creating it,
// pause milliseconds apart.
async function stream(bus, taskId, contextId, artifactId, deltas, pause = 3) {
  for (let i = 0; i < deltas.length; i++) {
    bus.publish(chunk(taskId, contextId, artifactId, deltas[i], { append: i > 0, lastChunk: false }));
    await sleep(pause);
  }
}

class StreamingAgent {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const text = ctx.userMessage.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      })
    );
    if (text.startsWith("input") || text.startsWith("fail")) {
      const narration = newId("art");
      await stream(bus, taskId, contextId, narration, NARRATION);
      bus.publish(chunk(taskId, contextId, narration, "", { append: true, lastChunk: true, metadata: { type: "intermediate-thinking" } }));
      if (text.startsWith("input")) {
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(QUESTION, taskId, contextId)));
      } else {
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_FAILED, agentMessage(FAILURE, taskId, contextId)));
      }
      bus.finished();
      return;
    }
    bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING, agentMessage("Recherche dans le dossier…", taskId, contextId)));
    const answer = newId("art");
    // "slow ..." leaves time to drop the connection and resubscribe.
    await stream(bus, taskId, contextId, answer, ANSWER_DELTAS, text.startsWith("slow") ? 150 : 3);
    bus.publish(chunk(taskId, contextId, answer, ANSWER_DELTAS.join(""), { append: false, lastChunk: true }));
    const usage = { $usage: { model: "interop-agent", inputTokens: 12, outputTokens: 34, totalTokens: 46, credits: 0.46 } };
    bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED, undefined, usage));
    bus.finished();
  }

  async cancelTask(taskId, bus) {
    bus.publish(status(taskId, "", TaskState.TASK_STATE_CANCELED, undefined));
    bus.finished();
  }
}

const app = express();
const server = app.listen(0, "127.0.0.1", () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: "a2astream interop agent",
    description: "Streams token deltas with non-ASCII text for the a2astream CLI's interop test.",
    supportedInterfaces: [
      { url: `${base}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      { url: `${base}/a2a/rest`, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: "1.0" },
    ],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
    signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new StreamingAgent());
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use("/a2a/rest", restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  console.log(`listening ${base}`);
});

for (const sig of ["SIGTERM", "SIGINT"]) {
  process.on(sig, () => server.close(() => process.exit(0)));
}
