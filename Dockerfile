FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build:web
ENV NODE_ENV=production DATA_DIR=/data
EXPOSE 3000
CMD ["node", "--import", "tsx", "server/main.ts"]
