/* Included (through the lesson header) by every student file. */
#ifndef SYNCLAB_STUDENT_H
#define SYNCLAB_STUDENT_H

/* Marks an exercise as not started. It leaves "// SYNCLAB_TODO name" in the
 * PTX, which the grader reads to answer TODO instead of running garbage.
 * Delete the line when you start the exercise. Use it in device code. */
#define SYNCLAB_TODO(exercise) asm volatile("// SYNCLAB_TODO " #exercise)

#endif
