// The upload's progress: the percent of the request's bytes the browser has sent.
export function UploadProgress({ percent }: { percent: number }) {
  return (
    <div className="upload-progress">
      <div
        className="upload-progress-track"
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="upload-progress-bar" style={{ width: `${percent}%` }} />
      </div>
      <span className="upload-progress-text">{percent}%</span>
    </div>
  )
}
