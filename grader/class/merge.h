/* syncgrade merge: the shards of a class (shard.h), each graded on its own
 * (a Slurm array task, a machine), joined into one output folder as one
 * run would have written it: grades.csv with the same rows in the same
 * order, and each student's report.txt, results.json (Gradescope) and
 * junit.xml. Build and work folders stay where the shards left them. */
#ifndef SYNCLAB_MERGE_H
#define SYNCLAB_MERGE_H

/* 0 when every student was graded; 1 when some have grader errors (ERROR
 * verdicts, named on stderr); 2 when the shards do not make one whole class
 * (a shard missing, twice, from another class) or out cannot be written. */
int sl_class_merge(const char *out, const char *const *shard_dirs, int count, int quiet);

#endif
