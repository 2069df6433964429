// The entry of a pipeline worker thread (started by createPipelinePool in worker-pool.ts; bundled to
// dist/server/pipeline-worker.js): serves the tasks of tasks.ts with one face engine per thread.
import { type FaceEngine, createHumanFaceEngine } from './face-engine';
import { type TaskContext, pipelineTasks } from './tasks';
import { serveTasks } from './worker-pool';

let engine: Promise<FaceEngine> | undefined;

const context: TaskContext = {
  faceEngine() {
    if (!engine) {
      engine = createHumanFaceEngine();
      // A failed load is not kept: the next task tries again (and reports its own error).
      engine.catch(() => (engine = undefined));
    }
    return engine;
  },
};

serveTasks(pipelineTasks, context);
